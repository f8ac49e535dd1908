import type { UserRecord } from './dataset.js';
import type { UserDto } from './dto.js';

/**
 * The wire shape of a user: an explicit pick, so that secrets and links of the record
 * (`passwordHash`, `roleIds`) can never leak, whatever is added to the record later.
 *
 * @example
 * toUserDto(data.users['1']); // { id: 1, name: 'Ada Admin', ..., updatedAt: '...' }
 */
export function toUserDto(user: UserRecord): UserDto {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    age: user.age,
    status: user.status,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
