import { remind, reminders, reminderTool } from '../../samples/handwritten/reminder-tool';
import { startScriptedServer } from '../../src/testing';

describe('samples/handwritten/reminder-tool (the custom tool in docs/writing-tools.md)', () => {
  it('sets the reminder from the raw input, after the model corrects an input outside the grammar', async () => {
    const server = await startScriptedServer({
      turns: [
        { toolCalls: [{ type: 'custom', name: 'set_reminder', input: 'at 9: stand-up' }] },
        { toolCalls: [{ type: 'custom', name: 'set_reminder', input: '09:30 "Stand-up", room 4' }] },
        { text: 'Done: 09:30.' },
      ],
    });
    try {
      await expect(remind(server.client(), 'Remind me of the stand-up at half past nine')).resolves.toBe(
        'Done: 09:30.',
      );
      expect(reminders).toEqual([{ time: '09:30', text: '"Stand-up", room 4' }]);
      expect(server.requests[0].body.tools).toEqual([reminderTool.schema]);
      const toolMessages = server.requests[2].body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(toolMessages).toEqual(['Write the time as HH:MM, a space, then the text', 'Reminder set for 09:30']);
    } finally {
      await server.close();
    }
  });
});
