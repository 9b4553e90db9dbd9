import { Module } from '@nestjs/common';

/** Events, appointments, enrollments, tags, guest counts and export. Its boundary is set now; later issues fill it in. */
@Module({})
export class SchedulingModule {}
