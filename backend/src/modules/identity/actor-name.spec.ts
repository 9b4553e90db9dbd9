import { actorName, actorNameSql } from './actor-name';

describe('actor name', () => {
  it('is "First Last", trimmed, and null without a user', () => {
    expect(actorName({ actor_first_name: 'Dana', actor_last_name: 'Owner' })).toBe('Dana Owner');
    expect(actorName({ actor_first_name: 'Dana', actor_last_name: null })).toBe('Dana');
    expect(actorName({ actor_first_name: 'Dana', actor_last_name: '' })).toBe('Dana');
    expect(actorName({ actor_first_name: null, actor_last_name: null })).toBeNull();
  });

  it('left-joins app_user on the given actor column', () => {
    expect(actorNameSql('r.actor_user_id')).toEqual({
      columns: 'actor_user.first_name as actor_first_name, actor_user.last_name as actor_last_name',
      join: 'left join app_user actor_user on actor_user.id = r.actor_user_id',
    });
  });
});
