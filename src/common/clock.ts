import { Injectable } from '@nestjs/common';

/** The source of "now" for business rules, replaceable in tests. */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
