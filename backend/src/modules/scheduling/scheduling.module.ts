import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Global, Module } from '@nestjs/common';
import { COURSE_SCHEDULE_READER } from '../catalog/course-schedule.port';
import { CatalogModule } from '../catalog/catalog.module';
import { EventDay } from './entities/event-day.entity';
import { Event } from './entities/event.entity';
import { SqlCourseScheduleReader } from './course-schedule.reader';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

/**
 * Events (sessions), enrollments, tags, guests and export. Global only to hand the catalog its
 * schedule reader (the catalog must not import scheduling, which depends on it).
 */
@Global()
@Module({
  imports: [MikroOrmModule.forFeature([Event, EventDay]), CatalogModule],
  controllers: [SessionsController],
  providers: [SessionsService, { provide: COURSE_SCHEDULE_READER, useClass: SqlCourseScheduleReader }],
  exports: [SessionsService, COURSE_SCHEDULE_READER],
})
export class SchedulingModule {}
