// The framework's floor: NestJS + Express with one global token guard and GET /api/v1, nothing else.
// Run as a child process by bench/run.mjs: node bench/servers/nest-minimal.mjs PORT TOKEN
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, UnauthorizedException } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { createHash, timingSafeEqual } from 'node:crypto';

const [port, token] = process.argv.slice(2);
const digest = (value) => createHash('sha256').update(value).digest();
const expected = digest(token);

class TokenGuard {
  canActivate(context) {
    const header = context.switchToHttp().getRequest().headers.authorization ?? '';
    const match = /^Bearer (.+)$/i.exec(header);
    if (match === null || !timingSafeEqual(digest(match[1]), expected)) throw new UnauthorizedException();
    return true;
  }
}
Injectable()(TokenGuard);

class StatusController {
  status() {
    return { success: true, message: 'Server API aktif' };
  }
}
Get()(StatusController.prototype, 'status', Object.getOwnPropertyDescriptor(StatusController.prototype, 'status'));
Controller('api/v1')(StatusController);

class MinimalModule {}
Module({ controllers: [StatusController], providers: [{ provide: APP_GUARD, useClass: TokenGuard }] })(MinimalModule);

const app = await NestFactory.create(MinimalModule, { logger: ['error'] });
await app.listen(Number(port), '127.0.0.1');
console.log('ready');
