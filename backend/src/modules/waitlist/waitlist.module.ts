import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { WaitlistEntry } from './waitlist-entry.entity';
import { WaitlistAdminService } from './waitlist-admin.service';
import { WaitlistClaimTokens } from './waitlist-claim-token';
import { WaitlistEvents } from './waitlist-events';
import { WaitlistMails } from './waitlist-mails';
import { WaitlistController } from './waitlist.controller';
import { WaitlistService } from './waitlist.service';

/**
 * The waitlist of sold-out sessions (issue 23): its table (waitlist_entry), the offers of freed
 * seats from the scheduling module's events (global), under its seat lock, and the admin's calls.
 * The store's calls are the storefront module's; the claim is the orders module's checkout.
 */
@Module({
  imports: [MikroOrmModule.forFeature([WaitlistEntry]), NotificationsModule, OrganizationsModule],
  controllers: [WaitlistController],
  providers: [WaitlistService, WaitlistAdminService, WaitlistEvents, WaitlistMails, WaitlistClaimTokens],
  exports: [WaitlistService],
})
export class WaitlistModule {}
