import { Global, Module } from '@nestjs/common';
import { Clock } from '../common/clock';
import { AppConfig } from './config.schema';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Provides the validated configuration, and the one clock (common/clock.ts), to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig) {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: new Clock(config.NODE_ENV === 'test') },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}
