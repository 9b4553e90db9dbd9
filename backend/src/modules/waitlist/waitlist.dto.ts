import {
  waitlistClaimSchema,
  waitlistClaimTokenSchema,
  waitlistJoinResultSchema,
  waitlistJoinSchema,
  waitlistMoveSchema,
  waitlistSchema,
} from '@studio/contracts';
import { z } from 'zod';
import { createZodDto } from '../../common/zod-dto';

export class WaitlistJoinDto extends createZodDto(waitlistJoinSchema) {}
export class WaitlistJoinResultDto extends createZodDto(waitlistJoinResultSchema) {}
export class WaitlistClaimDto extends createZodDto(waitlistClaimSchema) {}
/** The claim link's token. */
export class WaitlistClaimQueryDto extends createZodDto(
  z.strictObject({ token: waitlistClaimTokenSchema }),
) {}
export class WaitlistDto extends createZodDto(waitlistSchema) {}
export class WaitlistMoveDto extends createZodDto(waitlistMoveSchema) {}
