#!/usr/bin/env node
import 'reflect-metadata';
import { main } from './program.js';

/** The `hotspot` executable (package.json "bin"); the program itself is in program.ts. */
process.exitCode = await main(process.argv.slice(2));
