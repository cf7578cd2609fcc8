import { Injectable } from '@nestjs/common';
import { Param, Tool, toolResult } from '../../src';

/** What `ask_user` pauses the loop with; the caller shows it and resumes with the answer. */
export type AskUserInteractive = { type: 'userInput'; question: string; options?: string[] };

/** Tools that steer the conversation itself: ask the user, or finish. */
@Injectable()
export class ConversationTools {
  @Tool({
    name: 'ask_user',
    description: 'Ask the user a question and wait for the answer. Use it when a required detail is missing.',
  })
  askUser(
    @Param('question', { description: 'The question' }) question: string,
    @Param('options', { description: 'Suggested answers', optional: true, type: () => [String] }) options?: string[],
  ) {
    const interactive: AskUserInteractive = { type: 'userInput', question, ...(options ? { options } : {}) };
    return toolResult.interactive(interactive, `Asked the user: ${question}`);
  }

  @Tool({ description: 'Finish the task with a short summary for the user. Ends the conversation.' })
  finish(@Param('summary', { description: 'What was done' }) summary: string) {
    return toolResult.stop(summary);
  }
}
