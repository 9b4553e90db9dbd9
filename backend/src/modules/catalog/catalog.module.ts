import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { CoursesController } from './courses.controller';
import { CourseEvents } from './course-events';
import { CoursesService } from './courses.service';
import { Activity } from './entities/activity.entity';
import { ActivityImage } from './entities/activity-image.entity';
import { CheckoutForm } from './entities/checkout-form.entity';
import { Instructor } from './entities/instructor.entity';
import { Location } from './entities/location.entity';
import { Media } from './entities/media.entity';
import { WaiverTemplate } from './entities/waiver-template.entity';
import { MediaController } from './media.controller';
import { MediaService } from './media.service';
import { InstructorsController, LocationsController, PoliciesController, WaiversController } from './reference-data.controller';
import { ReferenceDataService } from './reference-data.service';
import { LocalDiskStorage } from './storage/local-disk.storage';
import { MEDIA_STORAGE } from './storage/media-storage';

/** Local disk by default; an S3-compatible bucket when S3_BUCKET is set (several API machines). */
async function mediaStorage(config: AppConfig) {
  if (!config.S3_BUCKET) return new LocalDiskStorage(config.MEDIA_DIR);
  // The AWS SDK is loaded only when S3 is configured: it costs the start close to a second.
  const { S3Storage } = await import('./storage/s3.storage');
  return new S3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}

/** Courses, locations, instructors, waivers and media. Products and discounts join later. */
@Module({
  imports: [MikroOrmModule.forFeature([Activity, ActivityImage, CheckoutForm, Instructor, Location, Media, WaiverTemplate])],
  controllers: [CoursesController, LocationsController, InstructorsController, WaiversController, PoliciesController, MediaController],
  providers: [
    CoursesService,
    CourseEvents,
    ReferenceDataService,
    MediaService,
    { provide: MEDIA_STORAGE, inject: [APP_CONFIG], useFactory: mediaStorage },
  ],
  exports: [CoursesService, CourseEvents, ReferenceDataService, MediaService],
})
export class CatalogModule {}
