/**
 * READ-ONLY JOIN ACROSS MODULES, kept in this one file: the name of the admin who did something
 * (an order's or subscription's activity, a refund, a loyalty entry), read from the identity
 * module's `app_user` in the lister's own query and shown as `actor`. Nothing here writes app_user.
 */

/** The columns ACTOR_NAME adds to a row. */
export interface ActorNameColumns {
  actor_first_name: string | null;
  actor_last_name: string | null;
}

/**
 * The select columns and the join of the actor's name, for a query whose actor column (the
 * app_user id, e.g. `r.actor_user_id`) is `actorUserIdColumn`. A row without an actor, or whose
 * user is gone, reads nulls (a left join). Map the row with actorName.
 */
export function actorNameSql(actorUserIdColumn: string): { columns: string; join: string } {
  return {
    columns: 'actor_user.first_name as actor_first_name, actor_user.last_name as actor_last_name',
    join: `left join app_user actor_user on actor_user.id = ${actorUserIdColumn}`,
  };
}

/** "First Last", trimmed; null when the row has no actor (no user, or a user without a first name). */
export function actorName(row: ActorNameColumns): string | null {
  return row.actor_first_name === null ? null : `${row.actor_first_name} ${row.actor_last_name ?? ''}`.trim();
}
