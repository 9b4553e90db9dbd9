import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { StudentsModule } from '../students/students.module';
import { Order } from './entities/order.entity';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Orders, payments, refunds, subscriptions and payment links. For now: the direct-enroll order. */
@Module({
  imports: [MikroOrmModule.forFeature([Order]), SchedulingModule, StudentsModule],
  controllers: [OrdersController],
  providers: [OrdersService],
  exports: [OrdersService],
})
export class OrdersModule {}
