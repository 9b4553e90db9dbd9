import { Module } from '@nestjs/common';
import { BookingLinksModule } from '../booking-links/booking-links.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { StudentsModule } from '../students/students.module';
import { StudentRemindersController } from './reminders.controller';
import { RemindersLog } from './reminders-log';
import { RemindersService } from './reminders.service';

/**
 * Reminder mails before a class or appointment (issue 23): scheduled from the scheduling module's
 * events (global), sent through MailService, logged in reminder_log (this module's one table) and
 * read by the student drawer.
 */
@Module({
  imports: [NotificationsModule, StudentsModule, BookingLinksModule],
  controllers: [StudentRemindersController],
  providers: [RemindersService, RemindersLog],
})
export class RemindersModule {}
