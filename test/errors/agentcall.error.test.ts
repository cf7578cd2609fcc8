import { AgentcallError } from '../../src/errors/agentcall.error';
import { EmptyModelResponseError } from '../../src/errors/empty-model-response.error';
import { ToolDefinitionError } from '../../src/errors/tool-definition.error';

describe('AgentcallError', () => {
  it('names each error after its concrete class and keeps it an Error', () => {
    const error = new ToolDefinitionError([{ className: 'A', message: 'broken' }]);
    expect(error.name).toBe('ToolDefinitionError');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(AgentcallError);
    expect(String(error)).toMatch(/^ToolDefinitionError: Invalid tool definitions/);
  });

  it('isInstance recognises the class it is called on and the base, not siblings', () => {
    const error = new EmptyModelResponseError();
    expect(EmptyModelResponseError.isInstance(error)).toBe(true);
    expect(AgentcallError.isInstance(error)).toBe(true);
    expect(ToolDefinitionError.isInstance(error)).toBe(false);
  });

  it('isInstance refuses plain errors and non-objects', () => {
    expect(AgentcallError.isInstance(new Error('x'))).toBe(false);
    expect(AgentcallError.isInstance(null)).toBe(false);
    expect(AgentcallError.isInstance('ToolDefinitionError')).toBe(false);
  });

  it('isInstance recognises an error thrown by another copy of the package (same Symbol.for marker)', () => {
    // What a second copy's ToolDefinitionError looks like from here: a different class, the same global marker.
    const foreign = Object.assign(new Error('from elsewhere'), {
      [Symbol.for('agentcall.error')]: ['ToolDefinitionError', 'AgentcallError'],
    });
    expect(foreign instanceof ToolDefinitionError).toBe(false);
    expect(ToolDefinitionError.isInstance(foreign)).toBe(true);
    expect(EmptyModelResponseError.isInstance(foreign)).toBe(false);
  });

  it('every class has a static name that is its own string, read by isInstance', () => {
    expect(AgentcallError.name).toBe('AgentcallError');
    expect(ToolDefinitionError.name).toBe('ToolDefinitionError');
    expect(EmptyModelResponseError.name).toBe('EmptyModelResponseError');
  });

  it('a subclass of a concrete error is recognised by its own and every ancestor class', () => {
    class StricterError extends ToolDefinitionError {}
    const error = new StricterError([]);
    expect(error.name).toBe('StricterError');
    expect(StricterError.isInstance(error)).toBe(true);
    expect(ToolDefinitionError.isInstance(error)).toBe(true);
    expect(StricterError.isInstance(new ToolDefinitionError([]))).toBe(false);
  });

  it('a subclass may name itself the way agentcall names its own errors', () => {
    const Anonymous = (() =>
      class extends ToolDefinitionError {
        static {
          this.defineName('QuotaError');
        }
      })();
    const error = new Anonymous([]);
    expect(error.name).toBe('QuotaError');
    expect(Anonymous.isInstance(error)).toBe(true);
    expect(ToolDefinitionError.isInstance(error)).toBe(true);
  });
});
