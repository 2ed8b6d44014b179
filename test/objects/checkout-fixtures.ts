/** The error envelope of a write refused because `holder` holds the object `number` checked out. */
export const heldBy = (number: string, holder = 'alice') => ({
  statusCode: 409,
  error: 'Conflict',
  message:
    `${number} is checked out by ${holder}: only ${holder} may change it or its files until it is checked in ` +
    '(a manager of its container or an administrator may undo the check-out)',
  requestId: expect.any(String),
});

/** Each answer is that refusal: 409 naming alice, who holds `number` checked out. */
export function expectHeldByAlice(number: string, answers: readonly { status: number; body: unknown }[]): void {
  for (const res of answers) {
    expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: heldBy(number) });
  }
}
