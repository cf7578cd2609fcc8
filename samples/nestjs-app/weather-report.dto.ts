import { IsNotEmpty, Max, MaxLength, Min } from 'class-validator';
import { Param } from '../../src';

/** The answer of `GET /agent/report`: what the model must return, checked by the same rules as a tool's parameters. */
export class WeatherReportDto {
  @Param({ description: 'The city, as get_weather names it' }) @IsNotEmpty() city!: string;
  @Param({ description: 'Temperature in °C, from get_weather' }) @Min(-90) @Max(60) celsius!: number;
  @Param({ description: 'Conditions, from get_weather' }) @IsNotEmpty() conditions!: string;
  @Param({ description: 'One sentence of advice for going out today' }) @IsNotEmpty() @MaxLength(200) advice!: string;
}
