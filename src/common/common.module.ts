import { Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import { Admission } from './load/admission.js';
import { PasswordHasher } from './passwords/password-hasher.js';
import { OpenApiRoutes } from './swagger/openapi-routes.js';

/** Global: one clock, one set of argon2id work classes and one admission per process. */
@Global()
@Module({ providers: [Clock, OpenApiRoutes, PasswordHasher, Admission], exports: [Clock, PasswordHasher, Admission] })
export class CommonModule {}
