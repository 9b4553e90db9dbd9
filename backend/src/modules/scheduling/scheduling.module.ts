import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Global, Module } from '@nestjs/common';
import { COURSE_SCHEDULE_READER } from '../catalog/course-schedule.port';
import { CatalogModule } from '../catalog/catalog.module';
import { BookingLinksModule } from '../booking-links/booking-links.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { WalletModule } from '../wallet/wallet.module';
import { AppointmentAdminService } from './appointment-admin.service';
import { AppointmentEvents, AppointmentMeetings } from './appointment-events';
import { AppointmentMailer } from './appointment-mailer';
import { AppointmentSlotsController } from './appointment-slots.controller';
import { AppointmentsController, CalendarController, CourseAppointmentsController } from './appointments.controller';
import { AppointmentSlotsService } from './appointment-slots.service';
import { AppointmentHolds } from './appointment-holds.service';
import { AppointmentReads } from './appointment-reads';
import { AppointmentsService } from './appointments.service';
import { SqlCourseScheduleReader } from './course-schedule.reader';
import { EnrollmentEvents } from './enrollment-events';
import { SessionCancelEvents, SessionEvents } from './session-events';
import { SessionCancellationService } from './session-cancellation.service';
import { EnrollmentExportService } from './enrollment-export.service';
import { EnrollmentRemovalHooks } from './enrollment-removal.hooks';
import { EnrollmentWaiverHooks } from './enrollment-waiver.hooks';
import { EnrollmentsController } from './enrollments.controller';
import { EnrollmentsService } from './enrollments.service';
import { EnrollmentGridQuery } from './enrollment-grid.query';
import { SeatAdminService } from './seat-admin.service';
import { SeatHoldsService } from './seat-holds.service';
import { SeatWriter } from './seat-writer';
import { Appointment } from './entities/appointment.entity';
import { Enrollment } from './entities/enrollment.entity';
import { EventDay } from './entities/event-day.entity';
import { Event } from './entities/event.entity';
import { SeatHold } from './entities/seat-hold.entity';
import { Tag } from './entities/tag.entity';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { StudentSessionsQuery } from './student-sessions.query';
import { StudentsModule } from '../students/students.module';
import { TagsService } from './tags.service';

/**
 * Events (sessions), enrollments, appointments, tags, guests and export. Global only to hand the catalog its
 * schedule reader (the catalog must not import scheduling, which depends on it).
 */
@Global()
@Module({
  imports: [MikroOrmModule.forFeature([Event, EventDay, Enrollment, Tag, SeatHold, Appointment]), CatalogModule, NotificationsModule, StudentsModule, BookingLinksModule, WalletModule],
  controllers: [
    EventsController,
    SessionsController,
    EnrollmentsController,
    AppointmentSlotsController,
    CourseAppointmentsController,
    AppointmentsController,
    CalendarController,
  ],
  providers: [
    EventsService,
    SessionsService,
    EnrollmentsService,
    SeatWriter,
    SeatHoldsService,
    SeatAdminService,
    EnrollmentGridQuery,
    AppointmentsService,
    AppointmentHolds,
    AppointmentReads,
    AppointmentSlotsService,
    AppointmentAdminService,
    AppointmentEvents,
    AppointmentMeetings,
    AppointmentMailer,
    TagsService,
    EnrollmentExportService,
    EnrollmentRemovalHooks,
    EnrollmentWaiverHooks,
    EnrollmentEvents,
    SessionEvents,
    SessionCancelEvents,
    SessionCancellationService,
    StudentSessionsQuery,
    { provide: COURSE_SCHEDULE_READER, useClass: SqlCourseScheduleReader },
  ],
  exports: [
    AppointmentsService,
    AppointmentHolds,
    AppointmentReads,
    AppointmentEvents,
    AppointmentMeetings,
    AppointmentSlotsService,
    SessionsService,
    EventsService,
    EnrollmentsService,
    EnrollmentRemovalHooks,
    EnrollmentWaiverHooks,
    EnrollmentEvents,
    SessionEvents,
    SessionCancelEvents,
    SessionCancellationService,
    COURSE_SCHEDULE_READER,
  ],
})
export class SchedulingModule {}
