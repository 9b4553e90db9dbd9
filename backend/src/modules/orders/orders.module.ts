import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { SchedulingModule } from '../scheduling/scheduling.module';
import { StudentsModule } from '../students/students.module';
import { OrderLine } from './entities/order-line.entity';
import { Order } from './entities/order.entity';
import { OrderController, OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** Orders, payments, refunds, subscriptions and payment links. For now: reading orders and the direct-enroll order. */
@Module({
  imports: [MikroOrmModule.forFeature([Order, OrderLine]), SchedulingModule, StudentsModule],
  controllers: [OrdersController, OrderController],
  providers: [OrdersService],
  exports: [OrdersService],
})
export class OrdersModule {}
