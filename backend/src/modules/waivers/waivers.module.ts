import { DocusealApi } from '@docuseal/api';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Logger, Module } from '@nestjs/common';
import { guardPort } from '../../common/outside-calls';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { CatalogModule } from '../catalog/catalog.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { StudentsModule } from '../students/students.module';
import { DemoEsignAdapter } from './demo/demo-esign.adapter';
import { DemoSigningController } from './demo/demo-signing.controller';
import { DocusealEsignAdapter } from './docuseal/docuseal-esign.adapter';
import { EsignPort } from './esign.port';
import { EsignTemplate, WaiverSubmission } from './waiver-submission.entity';
import { DocusealWebhookController, SubmissionsController } from './waivers.controller';
import { WaiverCompletionService } from './waiver-completion.service';
import { WaiverEffects } from './waiver-effects';
import { WaiverEvents } from './waiver-events';
import { WaiverProvider } from './waiver-provider';
import { WaiverReadModels } from './waiver-read-models';
import { WaiverRemindersService } from './waiver-reminders.service';
import { WaiversListeners } from './waivers-listeners';
import { WaiversService } from './waivers.service';

/** DocuSeal when DOCUSEAL_URL and DOCUSEAL_API_KEY are set; otherwise the embedded signing page. */
export function esignAdapter(config: AppConfig): EsignPort {
  if (config.DOCUSEAL_URL && config.DOCUSEAL_API_KEY) {
    const client = new DocusealApi({ key: config.DOCUSEAL_API_KEY, url: config.DOCUSEAL_URL.replace(/\/+$/, ''), openTimeout: 15000 });
    return new DocusealEsignAdapter(client, config.DOCUSEAL_URL, config.DOCUSEAL_WEBHOOK_SECRET);
  }
  if (!config.WAIVER_EMBEDDED_SIGNING) {
    new Logger('Waivers').log('No DOCUSEAL_URL and DOCUSEAL_API_KEY: waivers are signed on the built-in demo signing page');
  }
  const base = (config.PUBLIC_APP_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return new DemoEsignAdapter(base);
}

/**
 * Waivers (issue 10): signature requests for the courses that require a waiver, through an
 * e-signature port (DocuSeal, or the embedded signing page). Scheduling announces enrollments
 * (EnrollmentEvents); the enrollment's waiverStatus moves through EnrollmentsService; the student
 * detail reads the submissions through StudentDetailParts. What must follow a committed change of a
 * request (the sign-link mail, reminders, the archive at the provider) goes through the outbox
 * (WaiverEvents, handled by WaiverEffects).
 */
@Module({
  imports: [MikroOrmModule.forFeature([WaiverSubmission, EsignTemplate]), StudentsModule, CatalogModule, NotificationsModule],
  controllers: [SubmissionsController, DocusealWebhookController, DemoSigningController],
  providers: [
    WaiversService,
    WaiverEvents,
    WaiverProvider,
    WaiverCompletionService,
    WaiverRemindersService,
    WaiverReadModels,
    WaiverEffects,
    WaiversListeners,
    {
      provide: EsignPort,
      inject: [APP_CONFIG],
      // Test mode: each call to the provider checks that no transaction is open (common/outside-calls.ts).
      useFactory: (config: AppConfig) => guardPort(esignAdapter(config), 'esign', config.NODE_ENV === 'test', ['parseWebhook']),
    },
  ],
  exports: [WaiversService],
})
export class WaiversModule {}
