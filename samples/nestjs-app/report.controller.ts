import { BadRequestException, Controller, Get, HttpException, HttpStatus, Query } from '@nestjs/common';
import type { AgentStopReason } from '../../src';
import { ReportService } from './report.service';
import type { WeatherReportDto } from './weather-report.dto';

/**
 * A run that gives no report is the upstream's failure, not the caller's: 503 when the budget stopped it (the
 * service would not spend more on this request), 502 for an answer that never validated or a failed model request.
 */
const STATUS_OF: Partial<Record<AgentStopReason, number>> = {
  budget: HttpStatus.SERVICE_UNAVAILABLE,
  timeout: HttpStatus.GATEWAY_TIMEOUT,
};

/** `GET /agent/report?city=Rome`: the weather report as JSON, a `WeatherReportDto`. */
@Controller('agent')
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  @Get('report')
  async report(@Query('city') city: string | undefined): Promise<WeatherReportDto> {
    if (!city?.trim()) throw new BadRequestException('Query parameter "city" is required');
    const outcome = await this.reports.report(city.trim());
    if (outcome.ok) return outcome.report;
    const status = STATUS_OF[outcome.failure.stopReason] ?? HttpStatus.BAD_GATEWAY;
    throw new HttpException({ statusCode: status, ...outcome.failure }, status);
  }
}
