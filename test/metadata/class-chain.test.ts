import { classChain } from '../../src/metadata/class-chain';

describe('classChain', () => {
  it('lists a class and its bases, most derived first, without Object', () => {
    class A {}
    class B extends A {}
    class C extends B {}
    expect(classChain(C)).toEqual([C, B, A]);
    expect(classChain(A)).toEqual([A]);
  });
});
