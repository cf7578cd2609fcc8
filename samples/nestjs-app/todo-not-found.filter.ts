import { Catch, type ExceptionFilter } from '@nestjs/common';

/** A domain error: the to-do item does not exist. Its message is for logs, not for the model. */
export class TodoNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`todo ${id} not found in the store`);
  }
}

/**
 * Around a tool call, what an exception filter returns is the model's answer: here, text that tells the model
 * how to recover instead of a bare error.
 */
@Catch(TodoNotFoundError)
export class TodoNotFoundFilter implements ExceptionFilter<TodoNotFoundError> {
  catch(error: TodoNotFoundError): string {
    return `There is no to-do item "${error.id}". Call list_todos with status "all" to see every id.`;
  }
}
