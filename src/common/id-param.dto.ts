import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

// The example is the id the create examples get on a new database (Swagger UI "Try it out").
/** A path's `:id` of a resource numbered by the database (tokens, event subscriptions). */
export class IdParamDto {
  /** the resource's id */
  @ApiProperty({ example: 1 })
  @Type(() => Number)
  @IsInt({ message: 'id must be a whole number' })
  @Min(1, { message: 'id must be at least 1' })
  @Max(2_147_483_647, { message: 'id must be at most 2147483647' })
  id!: number;
}
