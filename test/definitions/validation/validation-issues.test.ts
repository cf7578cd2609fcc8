import 'reflect-metadata';
import { toolsFrom, type ToolDefinition } from '../../../src';
import { compileFixture } from '../../helpers/compile-fixture';

const FIXTURE = `
import { Tool, Param } from 'agentcall';
import { ArrayMinSize, IsArray, IsEnum, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';

export enum Cabin { Economy = 'economy', Business = 'business' }

export class Passenger {
  @Param() name!: string;
  @Param({ enum: Cabin }) cabin!: Cabin;
}

export class BookingDto {
  @Param({ enum: Cabin }) cabin!: Cabin;
  @IsEnum(Cabin) seatClass!: Cabin;
  @IsIn(['aisle', 'window']) seat!: string;
  @Param({ type: () => [String] }) tags!: string[];
  @IsArray() @IsString({ each: true }) @ArrayMinSize(1) meals!: string[];
  @Param({ type: () => [Passenger] }) passengers!: Passenger[];
  @IsOptional() @ValidateNested() @Type(() => Passenger) lead?: Passenger;
  @Param() note!: string;
}

export class Tools {
  @Tool({ description: 'Book' })
  book(@Param() booking: BookingDto) {
    return booking.cabin;
  }

  @Tool({ description: 'Inline' })
  inline(@Param('cabin', { enum: Cabin }) cabin: Cabin, @Param('tags', { type: () => [String] }) tags: string[]) {
    return [cabin, tags].join();
  }
}
`;

describe.each([false, true])('a field left out (useDefineForClassFields: %s)', (useDefine) => {
  const { Tools } = compileFixture(FIXTURE, useDefine) as { Tools: new () => object };
  const [book, inline] = toolsFrom(new Tools()) as [ToolDefinition, ToolDefinition];
  const lines = (tool: ToolDefinition, args: string) =>
    (tool.parseParams!(args) as { errorMessage: string }).errorMessage.split('\n').slice(1);

  it('is required, whatever its kind: enum, array, nested DTO or string', () => {
    expect(lines(book, '{"passengers": [{}], "lead": {"name": "Ada"}}')).toEqual([
      'cabin: cabin is required',
      'seatClass: seatClass is required',
      'seat: seat is required',
      'tags: tags is required',
      'meals: meals is required',
      'passengers[0].name: name is required',
      'passengers[0].cabin: cabin is required',
      'lead.cabin: cabin is required',
      'note: note is required',
    ]);
    expect(lines(inline, '{}')).toEqual(['cabin: cabin is required', 'tags: tags is required']);
  });

  it('a wrong value still names what is expected', () => {
    expect(lines(inline, '{"cabin": "first", "tags": "x"}')).toEqual([
      'cabin: cabin must be one of the following values: economy, business',
      'tags: tags must be an array',
    ]);
  });
});
