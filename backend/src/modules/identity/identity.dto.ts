import { loginSchema } from '@studio/contracts';
import { createZodDto } from '../../common/zod-dto';
import { z } from 'zod';
import { USER_ROLES } from './user.entity';

export class LoginDto extends createZodDto(loginSchema) {}

export const userSchema = z
  .object({
    user_id: z.uuid(),
    email: z.email(),
    first_name: z.string(),
    last_name: z.string(),
    role: z.enum(USER_ROLES),
    organization_id: z.uuid(),
  })
;
export class UserDto extends createZodDto(userSchema) {}

export const loginResponseSchema = z
  .object({ token: z.string().describe('Send it back in the `token` header'), user: userSchema })
;
export class LoginResponseDto extends createZodDto(loginResponseSchema) {}
