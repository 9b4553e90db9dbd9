import { Global, Module } from '@nestjs/common';
import { AppConfig } from './config.schema';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Provides the validated configuration to every module. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig) {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
