import { InFlight } from '../../src/http/in-flight';

describe('InFlight: what is in progress, in reused slots', () => {
  it('lists what was added and not yet removed', () => {
    const inFlight = new InFlight<string>();
    const removeA = inFlight.add('a');
    inFlight.add('b');
    const removeC = inFlight.add('c');
    removeA();
    removeC();
    expect([...inFlight]).toEqual(['b']);
  });

  it('removes an item once: a second call does not take out what later took its slot', () => {
    const inFlight = new InFlight<string>();
    const removeA = inFlight.add('a');
    removeA();
    inFlight.add('b'); // takes the slot 'a' left
    removeA();
    expect([...inFlight]).toEqual(['b']);
  });

  it('keeps the same item added twice until both are removed', () => {
    const inFlight = new InFlight<string>();
    const first = inFlight.add('same');
    const second = inFlight.add('same');
    first();
    expect([...inFlight]).toEqual(['same']);
    second();
    expect([...inFlight]).toEqual([]);
  });

  it('holds as many slots as items were in progress at once, however many came and went', () => {
    const inFlight = new InFlight<number>();
    for (let round = 0; round < 1000; round++) {
      const removes = [inFlight.add(round), inFlight.add(round + 1), inFlight.add(round + 2)];
      for (const remove of removes) remove();
    }
    // The slots are private; what they hold shows through the iterator, and the array's length through a cast.
    expect([...inFlight]).toEqual([]);
    expect((inFlight as unknown as { slots: unknown[] }).slots).toHaveLength(3);
  });
});
