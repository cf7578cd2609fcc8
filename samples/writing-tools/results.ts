import 'reflect-metadata';
import { Exclude } from 'class-transformer';
import { Param, Tool, toolResult } from '../../src';

/** Returned to the model as JSON through class-transformer, so `@Exclude()` hides a field. */
export class Customer {
  constructor(
    readonly id: string,
    readonly name: string,
    apiToken: string,
  ) {
    this.apiToken = apiToken;
  }

  @Exclude()
  apiToken: string;
}

/** What a method may return, and what the model reads. */
export class SupportTools {
  @Tool({ description: 'Look up a customer' })
  async findCustomer(@Param('id') id: string) {
    return new Customer(id, 'Ada', 'tok_secret'); // → {"id":"…","name":"Ada"}
  }

  @Tool({ description: 'Open tickets' })
  openTickets() {
    return 3; // → "3"; a string is sent as it is, undefined as ""
  }

  @Tool({ description: 'Hand the conversation to a human and stop' })
  escalate(@Param('reason') reason: string) {
    return toolResult.stop(`Escalated: ${reason}`);
  }

  @Tool({ description: 'Ask the user to confirm a refund' })
  refund(@Param('amount') amount: number) {
    // Pauses the run; the caller persists `interactiveResponse` and resumes with the user's answer.
    return toolResult.interactive({ type: 'confirm', question: `Refund ${amount} EUR?` }, 'Waiting for the user');
  }

  @Tool({ description: 'Search the knowledge base' })
  search(@Param('query') query: string) {
    return toolResult(`No article matches "${query}"`, { usages: [{ moduleName: 'kb_search', totalPoints: 1 }] });
  }
}
