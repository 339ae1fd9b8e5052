const INITIAL_SLOTS = 1024;
/** 2^32 as a divisor: a key's high and low 32 bits. */
const TWO_32 = 0x1_0000_0000;

/**
 * The phone keys (8 to 15 digits) a preview has seen, to count a file's duplicates in bounded
 * memory: each key is one float64 (its digits behind a leading 1, exact below 2^53) in an
 * open-addressing table kept at most half full. 1,000,000 rows (an audience file's cap) take at
 * most 2^21 slots, 16 MiB, where a Set of strings would take several times that.
 */
export class PhoneKeySet {
  private slots = new Float64Array(INITIAL_SLOTS);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds a key; false when it was there already. */
  add(phoneKey: string): boolean {
    if (!/^\d{8,15}$/.test(phoneKey)) throw new RangeError(`PhoneKeySet: ${JSON.stringify(phoneKey)} is not 8 to 15 digits`);
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const added = place(this.slots, Number(`1${phoneKey}`));
    if (added) this.count += 1;
    return added;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const value of old) if (value !== 0) place(this.slots, value);
  }
}

/** Linear probing; 0 marks a free slot (no key encodes to 0). */
function place(slots: Float64Array, value: number): boolean {
  const mask = slots.length - 1;
  for (let index = hash(value) & mask; ; index = (index + 1) & mask) {
    const slot = slots[index]!;
    if (slot === 0) {
      slots[index] = value;
      return true;
    }
    if (slot === value) return false;
  }
}

/** Mixes both halves of the value (murmur3's finaliser), so keys that differ in any digit spread. */
function hash(value: number): number {
  let h = Math.imul((value % TWO_32) ^ Math.imul(Math.floor(value / TWO_32), 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
