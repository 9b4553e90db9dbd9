import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { BookingLinksService } from './booking-links.service';

/** The bookings' manage links (issue 23): signed tokens and their store addresses, for every mail that carries one. */
@Module({
  imports: [OrganizationsModule],
  providers: [BookingLinksService],
  exports: [BookingLinksService],
})
export class BookingLinksModule {}
