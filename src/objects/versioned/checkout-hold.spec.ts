import { ConflictException } from '@nestjs/common';
import { checkoutGuard } from './checkout-hold.js';

describe('checkoutGuard', () => {
  it('lets a change of an object checked in apply as it always did', () => {
    expect(checkoutGuard({ holderId: null, holder: null }, 7, 'P-1')).toBe('free');
  });

  it("sends the holder's change to the working copy", () => {
    expect(checkoutGuard({ holderId: 7, holder: 'alice' }, 7, 'P-1')).toBe('holder');
  });

  it('refuses anyone else with 409 naming the holder', () => {
    const refuse = () => checkoutGuard({ holderId: 7, holder: 'alice' }, 8, 'P-1');
    expect(refuse).toThrow(ConflictException);
    expect(refuse).toThrow(
      'P-1 is checked out by alice: only alice may change it or its files until it is checked in ' +
        '(a manager of its container or an administrator may undo the check-out)',
    );
  });
});
