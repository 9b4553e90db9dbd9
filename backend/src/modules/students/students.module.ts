import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { StudentDetailParts } from './student-detail-parts';
import { StudentEvents } from './student-events';
import { Student } from './student.entity';
import { StudentsController } from './students.controller';
import { StudentsService } from './students.service';

/** The studio's customers (students). Loyalty, waivers and orders of the student drawer join later. */
@Module({
  imports: [MikroOrmModule.forFeature([Student]), OrganizationsModule],
  controllers: [StudentsController],
  providers: [StudentsService, StudentDetailParts, StudentEvents],
  exports: [StudentsService, StudentDetailParts, StudentEvents],
})
export class StudentsModule {}
