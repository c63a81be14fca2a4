import { eventually } from './eventually.js';
import { callV1 } from './http.js';

/**
 * Advances a test clock and waits until it is `ready` again. A subscription can show the new
 * state (paused, renewed) before the clock's other customers have caught up, and the API refuses
 * changes to a clocked subscription while its clock advances (409): a test that acts after an
 * advance waits for the clock, not for the one entity it watches.
 */
export async function advanceTestClock(
  baseUrl: string,
  token: string,
  clockId: string,
  frozenTime: string,
  timeoutMs = 60_000,
): Promise<void> {
  const advanced = await callV1(baseUrl, token, 'POST', `/test-clocks/${clockId}/advance`, {
    frozen_time: frozenTime,
  });
  if (advanced.status !== 202)
    throw new Error(`advance to ${frozenTime}: ${advanced.status} ${JSON.stringify(advanced.body)}`);
  await eventually(
    () => callV1(baseUrl, token, 'GET', `/test-clocks/${clockId}`),
    (answer) => answer.body.status === 'ready',
    timeoutMs,
  );
}
