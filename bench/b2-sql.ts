/**
 * B2's baseline query: one customer's sum of tokens of `api_call` events per UTC day, with the
 * total, written by hand for that one meter. $1 customer id, $2 start, $3 end.
 */
export const HAND_WRITTEN_QUANTITIES_SQL = `SELECT d.day, coalesce(s.tokens, 0) AS quantity, sum(coalesce(s.tokens, 0)) OVER () AS total
     FROM generate_series(date_trunc('day', $2::timestamptz AT TIME ZONE 'UTC'), $3::timestamptz AT TIME ZONE 'UTC', '1 day') AS d(day)
     LEFT JOIN (
       SELECT date_trunc('day', timestamp AT TIME ZONE 'UTC') AS day, sum((metadata->>'tokens')::numeric) AS tokens
       FROM events
       WHERE customer_id = $1 AND name = 'api_call' AND source = 'user' AND timestamp >= $2 AND timestamp <= $3
       GROUP BY 1
     ) s ON s.day = d.day
     ORDER BY d.day`;
