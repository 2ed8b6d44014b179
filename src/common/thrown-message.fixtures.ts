import { BadRequestException } from '@nestjs/common';

/**
 * For unit specs: the message of the error `fn` throws, which must be a `type`
 * (BadRequestException unless told); fails when `fn` throws nothing.
 */
export function message(
  fn: () => unknown,
  type: abstract new (...args: never[]) => Error = BadRequestException,
): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(type);
    return (e as Error).message;
  }
  throw new Error(`expected a ${type.name}`);
}
