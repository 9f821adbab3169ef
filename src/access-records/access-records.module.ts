import { Module } from '@nestjs/common';
import { AccessRecordCaptureModule } from './access-record-capture.module.js';
import { AccessRecordsSweeper } from './access-records-sweeper.js';
import { AccessRecordsService } from './access-records.service.js';

/** Records for the regulator: their daily export, signed and chained, and their retention. */
@Module({
  imports: [AccessRecordCaptureModule],
  providers: [AccessRecordsService, AccessRecordsSweeper],
  exports: [AccessRecordsService],
})
export class AccessRecordsModule {}
