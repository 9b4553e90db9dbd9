import { Injectable } from '@nestjs/common';
import type { Attendance, LoyaltyEntry, LoyaltyStatus, WaiverSubmission } from '@studio/contracts';
import type { RequestContext } from '../../common/request-context';

/** One row of the student drawer's Orders section (spec 001 §3 new_orders). */
export interface StudentOrderRow {
  order_id: string;
  order_number: number;
  created_at: string;
  /** cents */
  total: number;
  status: string;
  /** The first line's picture (the product's or the course's first image), or null. */
  image: string | null;
  subDescription: string;
}

/** What the student drawer needs from the orders module. */
export interface StudentOrdersSource {
  recentOrders(ctx: RequestContext, studentId: string): Promise<StudentOrderRow[]>;
}

/** What the student drawer needs from the loyalty module: the ledger's newest entries and the programme's state. */
export interface StudentLoyaltySource {
  balance(
    ctx: RequestContext,
    studentId: string,
  ): Promise<{ entries: LoyaltyEntry[]; programStatus: LoyaltyStatus }>;
}

/** What the student drawer needs from the waivers module: the student's submissions, newest first. */
export interface StudentWaiversSource {
  submissions(ctx: RequestContext, studentId: string): Promise<WaiverSubmission[]>;
}

/** One row of the student drawer's Sessions section: a session the student is enrolled in (issue 23). */
export interface StudentSessionRow {
  enrollment_id: string;
  event_id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  /** The session's location's zone, in which the drawer shows its time. */
  timezone: string;
  checked_in_at: string | null;
  attendance: Attendance;
}

/** What the student drawer needs from the scheduling module: the student's sessions, newest first. */
export interface StudentSessionsSource {
  sessions(ctx: RequestContext, studentId: string): Promise<StudentSessionRow[]>;
}

/**
 * The parts of the student detail that other modules own. Those modules depend on this one (they
 * check students through StudentsService), so they register their reader here when they start,
 * and the student detail asks through these ports: no circular import, no foreign tables read.
 */
@Injectable()
export class StudentDetailParts {
  private orders: StudentOrdersSource | null = null;
  private loyalty: StudentLoyaltySource | null = null;
  private waivers: StudentWaiversSource | null = null;
  private sessions: StudentSessionsSource | null = null;

  registerOrders(source: StudentOrdersSource): void {
    this.orders = source;
  }

  registerLoyalty(source: StudentLoyaltySource): void {
    this.loyalty = source;
  }

  registerWaivers(source: StudentWaiversSource): void {
    this.waivers = source;
  }

  registerSessions(source: StudentSessionsSource): void {
    this.sessions = source;
  }

  async studentSessions(ctx: RequestContext, studentId: string): Promise<StudentSessionRow[]> {
    if (!this.sessions) throw new Error('No sessions source registered: the scheduling module is not loaded');
    return this.sessions.sessions(ctx, studentId);
  }

  async submissions(ctx: RequestContext, studentId: string): Promise<WaiverSubmission[]> {
    if (!this.waivers) throw new Error('No waivers source registered: the waivers module is not loaded');
    return this.waivers.submissions(ctx, studentId);
  }

  async recentOrders(ctx: RequestContext, studentId: string): Promise<StudentOrderRow[]> {
    if (!this.orders) throw new Error('No orders source registered: the orders module is not loaded');
    return this.orders.recentOrders(ctx, studentId);
  }

  async loyaltyBalance(ctx: RequestContext, studentId: string) {
    if (!this.loyalty) throw new Error('No loyalty source registered: the loyalty module is not loaded');
    return this.loyalty.balance(ctx, studentId);
  }
}
