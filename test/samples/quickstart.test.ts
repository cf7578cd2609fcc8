describe('samples/quickstart', () => {
  it('runs the decorated tool in the loop against the scripted server and prints the answer', async () => {
    let printed: (text: unknown) => void = () => undefined;
    const output = new Promise<unknown>((resolve) => (printed = resolve));
    const log = jest.spyOn(console, 'log').mockImplementation((text: unknown) => printed(text));
    try {
      jest.isolateModules(() => {
        jest.requireActual('../../samples/quickstart/main');
      });
      expect(await output).toBe('The tool answered "{\\"city\\":\\"Paris\\",\\"celsius\\":12}"');
      expect(log).toHaveBeenCalledTimes(1);
    } finally {
      log.mockRestore();
    }
  });
});
