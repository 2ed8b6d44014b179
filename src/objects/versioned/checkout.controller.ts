import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../auth/auth-user.js';
import { CurrentUser } from '../../auth/current-user.decorator.js';
import { ApiAuthenticated, ApiErrors, OBJECT_BUSY_ANSWER } from '../../common/api-docs.decorators.js';
import { CheckinDto, CheckoutRefParamDto, ObjectTypeQueryDto } from '../dto/object-request.dto.js';
import { ObjectDto } from '../dto/object-response.dto.js';
import { CheckoutService } from './checkout.service.js';

const NOT_FOUND = 'no such object the caller may read';
const FORBIDDEN = 'the caller may only read the container';

@ApiTags('objects')
@ApiAuthenticated()
@Controller('objects/:ref')
export class CheckoutController {
  constructor(private readonly checkouts: CheckoutService) {}

  @Post('checkout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check an object out',
    description:
      'Makes a working copy of the latest iteration (the next iteration number, `workingCopy: true`) that only the ' +
      "caller sees and changes: the caller's changes of the object, its files, CAD attributes and usage links go to " +
      'it in place; every other user reads the latest checked-in iteration and is refused changes (409 naming the ' +
      'holder), also of the catalog links the object owns (role A) and deletions removing its links, until the ' +
      'object is checked in or the check-out undone. Only versioned objects are checked out. Needs author or ' +
      'manager rights. Answers the working copy.',
  })
  @ApiOkResponse({ type: ObjectDto, description: 'the working copy' })
  @ApiErrors({
    400: 'bad parameter; a plain object (its class is not versioned)',
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: 'checked out already (the message names the holder); a released object; an OID of an older iteration',
    503: OBJECT_BUSY_ANSWER,
  })
  checkout(
    @CurrentUser() user: AuthUser,
    @Param() params: CheckoutRefParamDto,
    @Query() query: ObjectTypeQueryDto,
  ): Promise<ObjectDto> {
    return this.checkouts.checkout(user, params.ref, query.type);
  }

  @Post('checkin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check an object in',
    description:
      "The holder's working copy becomes the latest iteration, with `message` as its note: all the changes made " +
      'while checked out are one new iteration. Answers it.',
  })
  @ApiBody({ type: CheckinDto, examples: { message: { value: { message: 'hole pattern moved 2 mm' } } } })
  @ApiOkResponse({ type: ObjectDto, description: 'the new latest iteration' })
  @ApiErrors({
    400: 'bad parameter or body; the message names the field',
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: 'not checked out; checked out by another user (the message names them)',
    503: OBJECT_BUSY_ANSWER,
  })
  checkin(
    @CurrentUser() user: AuthUser,
    @Param() params: CheckoutRefParamDto,
    @Query() query: ObjectTypeQueryDto,
    @Body() body: CheckinDto,
  ): Promise<ObjectDto> {
    return this.checkouts.checkin(user, params.ref, query.type, body.message ?? null);
  }

  @Post('undo-checkout')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Undo a check-out',
    description:
      'Deletes the working copy with every change made while checked out, and checks the object in. The holder ' +
      "undoes their own check-out; a manager of the object's container or an administrator may undo (break) " +
      "another user's. Answers the latest iteration, unchanged.",
  })
  @ApiOkResponse({ type: ObjectDto, description: 'the latest iteration' })
  @ApiErrors({
    400: 'bad parameter',
    403: "the caller may only read the container; another user's check-out, and the caller is not a manager there",
    404: NOT_FOUND,
    409: 'not checked out',
    503: OBJECT_BUSY_ANSWER,
  })
  undo(
    @CurrentUser() user: AuthUser,
    @Param() params: CheckoutRefParamDto,
    @Query() query: ObjectTypeQueryDto,
  ): Promise<ObjectDto> {
    return this.checkouts.undo(user, params.ref, query.type);
  }
}
