import { Module } from '@nestjs/common';
import { AccessRecordCapture } from './access-record-capture.service.js';
import { AccessRecordsRepository } from './access-records.repository.js';

/**
 * The capture of the records for the regulator, for the features that write it in their own
 * transactions: the usage fold (usage/) and a user's deletion (hotspot-users/).
 */
@Module({
  providers: [AccessRecordCapture, AccessRecordsRepository],
  exports: [AccessRecordCapture, AccessRecordsRepository],
})
export class AccessRecordCaptureModule {}
