/** What products need from the loyalty module: whether the organization's programme is active. */
export interface LoyaltyProgramReader {
  isActive(organizationId: string): Promise<boolean>;
}

export const LOYALTY_PROGRAM = Symbol('LOYALTY_PROGRAM');
