import { MikroOrmModule } from '@mikro-orm/nestjs';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { Options } from '@mikro-orm/core';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ZodValidationPipe } from 'nestjs-zod';
import { ConfigModule } from './config/config.module';
import { AppConfig } from './config/config.schema';
import { ErrorFilter } from './common/error.filter';
import { HealthController } from './health/health.controller';
import { CatalogModule } from './modules/catalog/catalog.module';
import { DiscountsModule } from './modules/discounts/discounts.module';
import { IdentityModule } from './modules/identity/identity.module';
import { LoyaltyModule } from './modules/loyalty/loyalty.module';
import { WalletModule } from './modules/wallet/wallet.module';
import { WaiversModule } from './modules/waivers/waivers.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { OrdersModule } from './modules/orders/orders.module';
import { OrganizationsModule } from './modules/organizations/organizations.module';
import { StorefrontModule } from './modules/storefront/storefront.module';
import { ManageBookingModule } from './modules/manage-booking/manage-booking.module';
import { BookingLinksModule } from './modules/booking-links/booking-links.module';
import { PaymentsModule } from './modules/payments/payments.module';
import { ProductsModule } from './modules/products/products.module';
import { RemindersModule } from './modules/reminders/reminders.module';
import { WaitlistModule } from './modules/waitlist/waitlist.module';
import { SchedulingModule } from './modules/scheduling/scheduling.module';
import { SyncModule } from './modules/sync/sync.module';
import { StudentsModule } from './modules/students/students.module';
import { QueueModule } from './queue/queue.module';
import { OutboxModule } from './outbox/outbox.module';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { QueueDashboardModule } from './queue/dashboard/queue-dashboard.module';

/** The whole backend: one module per bounded context, wired to the database, the queue and the logger. */
@Module({})
export class AppModule {
  /** `extraImports`: modules a special entry adds (the reliability test's worker registers a handler). */
  static forRoot(config: AppConfig, ormOptions: Options, extraImports: DynamicModule['imports'] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.LOG_LEVEL,
            autoLogging: { ignore: (req) => req.url === '/api/health' },
            redact: ['req.headers.token', 'req.headers.authorization', 'req.headers.cookie'],
          },
          forRoutes: [{ path: '{*all}', method: RequestMethod.ALL }],
        }),
        MikroOrmModule.forRoot({ ...ormOptions, forRoutesPath: '{*all}' }),
        QueueModule,
        OutboxModule,
        IdempotencyModule,
        IdentityModule,
        OrganizationsModule,
        CatalogModule,
        ProductsModule,
        SchedulingModule,
        StudentsModule,
        PaymentsModule,
        OrdersModule,
        DiscountsModule,
        LoyaltyModule,
        WalletModule,
        WaiversModule,
        RemindersModule,
        WaitlistModule,
        SyncModule,
        NotificationsModule,
        StorefrontModule,
        BookingLinksModule,
        ManageBookingModule,
        QueueDashboardModule,
        ...extraImports,
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_PIPE, useClass: ZodValidationPipe },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
    };
  }
}
