import { Injectable } from '@nestjs/common';
import { ArrayMaxSize, ArrayMinSize, IsNumber } from 'class-validator';
import { Param, Tool } from '../../src';

export enum Operation {
  Add = 'add',
  Subtract = 'subtract',
  Multiply = 'multiply',
  Divide = 'divide',
}

/** The arguments of `calculate`, as a DTO: one class is the schema, the validation and the parameter type. */
export class CalculationDto {
  @Param({ description: 'Left operand' })
  a!: number;

  @Param({ description: 'The operation', enum: Operation })
  op!: Operation;

  @Param({ description: 'Right operand' })
  b!: number;
}

/** Arithmetic the model should not do in its head. */
@Injectable()
export class CalculatorTools {
  @Tool({ description: 'Apply one arithmetic operation to two numbers.' })
  calculate(@Param() { a, op, b }: CalculationDto): number {
    switch (op) {
      case Operation.Add:
        return a + b;
      case Operation.Subtract:
        return a - b;
      case Operation.Multiply:
        return a * b;
      case Operation.Divide:
        if (b === 0) throw new Error('Division by zero');
        return a / b;
    }
  }

  @Tool({ description: 'Sum a list of numbers.' })
  sum(
    @Param(
      'numbers',
      { description: 'The numbers to add', type: () => [Number] },
      ArrayMinSize(1),
      ArrayMaxSize(1000),
      IsNumber({}, { each: true }),
    )
    numbers: number[],
  ): number {
    return numbers.reduce((total, n) => total + n, 0);
  }
}
