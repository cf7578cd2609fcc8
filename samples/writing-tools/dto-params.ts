import 'reflect-metadata';
import { ArrayMaxSize, ArrayMinSize, IsEmail, IsInt, IsOptional, Length, Matches, Max, Min } from 'class-validator';
import { Param, Tool } from '../../src';

export enum Cabin {
  Economy = 'economy',
  Business = 'business',
}

/** A DTO may use @Param alone: the TypeScript type gives the JSON type and the check. */
export class Passenger {
  @Param({ description: 'Full name as on the passport' })
  name!: string;

  @Param({ description: 'Age in years' })
  @IsInt()
  @Min(0)
  @Max(130)
  age!: number;

  // Plain class-validator works too; the schema reads the same decorators that validate.
  @IsOptional()
  @IsEmail()
  email?: string;
}

/** The whole arguments object of `book`, with a nested array of DTOs. */
export class BookingDto {
  @Param({ description: 'IATA code of the departure airport', examples: ['OSL'] })
  @Length(3, 3)
  from!: string;

  @Param({ description: 'IATA code of the arrival airport' })
  @Length(3, 3)
  to!: string;

  @Param({ description: 'Departure date, YYYY-MM-DD' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  date!: string;

  @Param({ enum: Cabin, optional: true })
  cabin?: Cabin;

  // Arrays reflect as Array: `type` names the item class (or use @ValidateNested({ each: true }) + @Type).
  @Param({ type: () => [Passenger], description: 'Who flies' })
  @ArrayMinSize(1)
  @ArrayMaxSize(9)
  passengers!: Passenger[];
}

/** A class with one DTO parameter; `strict: true` makes the model fill every field (null for the optional ones). */
export class FlightTools {
  readonly booked: BookingDto[] = [];

  @Tool({ description: 'Book a flight', strict: true })
  book(@Param({ description: 'The booking' }) booking: BookingDto) {
    this.booked.push(booking);
    return `Booked ${booking.passengers.length} seat(s) ${booking.from}→${booking.to} on ${booking.date} in ${booking.cabin ?? Cabin.Economy}`;
  }

  @Tool({ description: 'Check in one passenger' })
  checkIn(
    @Param('bookingRef') bookingRef: string,
    // A DTO-typed inline parameter is a nested object; @ValidateNested and @Type are added for you.
    @Param('passenger') passenger: Passenger,
  ) {
    return `${passenger.name} checked in on ${bookingRef}`;
  }
}
