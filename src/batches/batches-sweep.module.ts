import { Module } from '@nestjs/common';
import { BatchPasswordsSweeper } from './batch-passwords.sweeper.js';
import { BatchesModule } from './batches.module.js';

/** The erasure of batch passwords past their window: API instances import it, commands do not. */
@Module({ imports: [BatchesModule], providers: [BatchPasswordsSweeper] })
export class BatchesSweepModule {}
