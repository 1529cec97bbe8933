/* A small QR Code encoder (ISO/IEC 18004): byte mode, error correction level M, versions
 * 1 to 40, the mask with the lowest penalty. Written for Segnapunti's share links; returns
 * the module matrix, or an SVG element drawn from it. No dependencies. */
const QR = (() => {
  // Level M: error correction codewords per block, and number of blocks, by version.
  const ECC_PER_BLOCK = [-1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28,
    28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    28, 28];
  const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17,
    18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
  const FORMAT_LEVEL_M = 0; // the two format bits of level M

  function rawDataModules(ver) {
    let result = (16 * ver + 128) * ver + 64;
    if (ver >= 2) {
      const align = Math.floor(ver / 7) + 2;
      result -= (25 * align - 10) * align - 55;
      if (ver >= 7) result -= 36;
    }
    return result;
  }

  function dataCodewords(ver) {
    return Math.floor(rawDataModules(ver) / 8) - ECC_PER_BLOCK[ver] * BLOCKS[ver];
  }

  function alignmentPositions(ver, size) {
    if (ver === 1) return [];
    const count = Math.floor(ver / 7) + 2;
    const step = ver === 32 ? 26 : Math.ceil((ver * 4 + 4) / (count * 2 - 2)) * 2;
    const out = [6];
    for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
    return out;
  }

  // -- Reed-Solomon over GF(2^8) with the polynomial 0x11D --
  function gfMul(x, y) {
    let z = 0;
    for (let i = 7; i >= 0; i--) {
      z = (z << 1) ^ ((z >>> 7) * 0x11d);
      z ^= ((y >>> i) & 1) * x;
    }
    return z & 0xff;
  }

  function rsDivisor(degree) {
    const result = new Array(degree).fill(0);
    result[degree - 1] = 1;
    let root = 1;
    for (let i = 0; i < degree; i++) {
      for (let j = 0; j < degree; j++) {
        result[j] = gfMul(result[j], root);
        if (j + 1 < degree) result[j] ^= result[j + 1];
      }
      root = gfMul(root, 0x02);
    }
    return result;
  }

  function rsRemainder(data, divisor) {
    const result = divisor.map(() => 0);
    for (const b of data) {
      const factor = b ^ result.shift();
      result.push(0);
      divisor.forEach((coef, i) => { result[i] ^= gfMul(coef, factor); });
    }
    return result;
  }

  function utf8(text) {
    return Array.from(new TextEncoder().encode(text));
  }

  function encodeData(bytes, ver) {
    const bits = [];
    const push = (value, length) => {
      for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
    };
    push(0x4, 4); // byte mode
    push(bytes.length, ver <= 9 ? 8 : 16);
    bytes.forEach((b) => push(b, 8));
    const capacity = dataCodewords(ver) * 8;
    push(0, Math.min(4, capacity - bits.length));
    push(0, (8 - (bits.length % 8)) % 8);
    const out = [];
    for (let i = 0; i < bits.length; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8; j++) byte = (byte << 1) | bits[i + j];
      out.push(byte);
    }
    for (let pad = 0xec; out.length < capacity / 8; pad ^= 0xec ^ 0x11) out.push(pad);
    return out;
  }

  function interleave(data, ver) {
    const blocks = BLOCKS[ver];
    const eccLen = ECC_PER_BLOCK[ver];
    const raw = Math.floor(rawDataModules(ver) / 8);
    const shortBlocks = blocks - (raw % blocks);
    const shortLen = Math.floor(raw / blocks);
    const divisor = rsDivisor(eccLen);
    const all = [];
    for (let i = 0, k = 0; i < blocks; i++) {
      const dat = data.slice(k, k + shortLen - eccLen + (i < shortBlocks ? 0 : 1));
      k += dat.length;
      const ecc = rsRemainder(dat, divisor);
      if (i < shortBlocks) dat.push(0);
      all.push(dat.concat(ecc));
    }
    const out = [];
    for (let i = 0; i < all[0].length; i++) {
      all.forEach((block, j) => {
        if (i !== shortLen - eccLen || j >= shortBlocks) out.push(block[i]);
      });
    }
    return out;
  }

  function maskBit(mask, x, y) {
    switch (mask) {
      case 0: return (x + y) % 2 === 0;
      case 1: return y % 2 === 0;
      case 2: return x % 3 === 0;
      case 3: return (x + y) % 3 === 0;
      case 4: return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0;
      case 5: return ((x * y) % 2) + ((x * y) % 3) === 0;
      case 6: return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0;
      default: return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
    }
  }

  class Matrix {
    constructor(ver) {
      this.ver = ver;
      this.size = ver * 4 + 17;
      this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
      this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    }

    set(x, y, dark) {
      this.dark[y][x] = dark;
      this.fixed[y][x] = true;
    }

    drawFunctionPatterns() {
      const n = this.size;
      for (let i = 0; i < n; i++) {
        this.set(6, i, i % 2 === 0);
        this.set(i, 6, i % 2 === 0);
      }
      for (const [cx, cy] of [[3, 3], [n - 4, 3], [3, n - 4]]) {
        for (let dy = -4; dy <= 4; dy++) {
          for (let dx = -4; dx <= 4; dx++) {
            const x = cx + dx;
            const y = cy + dy;
            if (x < 0 || y < 0 || x >= n || y >= n) continue;
            const dist = Math.max(Math.abs(dx), Math.abs(dy));
            this.set(x, y, dist !== 2 && dist !== 4);
          }
        }
      }
      const pos = alignmentPositions(this.ver, n);
      const last = pos.length - 1;
      pos.forEach((cx, i) => pos.forEach((cy, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) {
            this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
          }
        }
      }));
      this.drawFormat(0); // reserves the format area; drawn again with the chosen mask
      if (this.ver >= 7) {
        let rem = this.ver;
        for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
        const bits = (this.ver << 12) | rem;
        for (let i = 0; i < 18; i++) {
          const bit = ((bits >>> i) & 1) === 1;
          const a = n - 11 + (i % 3);
          const b = Math.floor(i / 3);
          this.set(a, b, bit);
          this.set(b, a, bit);
        }
      }
    }

    drawFormat(mask) {
      const n = this.size;
      const data = (FORMAT_LEVEL_M << 3) | mask;
      let rem = data;
      for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
      const bits = ((data << 10) | rem) ^ 0x5412;
      const bit = (i) => ((bits >>> i) & 1) === 1;
      for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
      this.set(8, 7, bit(6));
      this.set(8, 8, bit(7));
      this.set(7, 8, bit(8));
      for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
      for (let i = 0; i < 8; i++) this.set(n - 1 - i, 8, bit(i));
      for (let i = 8; i < 15; i++) this.set(8, n - 15 + i, bit(i));
      this.set(8, n - 8, true);
    }

    drawCodewords(codewords) {
      const n = this.size;
      let i = 0;
      for (let right = n - 1; right >= 1; right -= 2) {
        if (right === 6) right = 5;
        for (let vert = 0; vert < n; vert++) {
          for (let j = 0; j < 2; j++) {
            const x = right - j;
            const upward = ((right + 1) & 2) === 0;
            const y = upward ? n - 1 - vert : vert;
            if (!this.fixed[y][x] && i < codewords.length * 8) {
              this.dark[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
              i++;
            }
          }
        }
      }
    }

    applyMask(mask) {
      for (let y = 0; y < this.size; y++) {
        for (let x = 0; x < this.size; x++) {
          if (!this.fixed[y][x] && maskBit(mask, x, y)) this.dark[y][x] = !this.dark[y][x];
        }
      }
    }

    penalty() {
      const n = this.size;
      const m = this.dark;
      let score = 0;
      const lines = [];
      for (let y = 0; y < n; y++) lines.push(m[y]);
      for (let x = 0; x < n; x++) lines.push(m.map((row) => row[x]));
      const finderA = [true, false, true, true, true, false, true, false, false, false, false];
      const finderB = finderA.slice().reverse();
      for (const line of lines) {
        let run = 1;
        for (let i = 1; i <= n; i++) {
          if (i < n && line[i] === line[i - 1]) {
            run++;
          } else {
            if (run >= 5) score += 3 + (run - 5);
            run = 1;
          }
        }
        for (let i = 0; i + 11 <= n; i++) {
          if (finderA.every((v, k) => line[i + k] === v) ||
              finderB.every((v, k) => line[i + k] === v)) score += 40;
        }
      }
      let dark = 0;
      for (let y = 0; y < n; y++) {
        for (let x = 0; x < n; x++) {
          if (m[y][x]) dark++;
          if (x + 1 < n && y + 1 < n && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] &&
              m[y][x] === m[y + 1][x + 1]) score += 3;
        }
      }
      const percent = (dark * 100) / (n * n);
      score += 10 * Math.floor(Math.abs(percent - 50) / 5);
      return score;
    }
  }

  /** The QR code of ``text``: {version, mask, size, modules (rows of booleans, true = dark)}.
   * ``options.version`` and ``options.mask`` fix them (for tests). */
  function encode(text, options = {}) {
    const bytes = utf8(text);
    let ver = options.version || 1;
    const fits = (v) => 4 + (v <= 9 ? 8 : 16) + bytes.length * 8 <= dataCodewords(v) * 8;
    while (ver <= 40 && !fits(ver)) {
      if (options.version) throw new Error("the text does not fit the version asked");
      ver++;
    }
    if (ver > 40) throw new Error("the text is too long for a QR code");
    const codewords = interleave(encodeData(bytes, ver), ver);
    let best = null;
    const masks = options.mask !== undefined ? [options.mask] : [0, 1, 2, 3, 4, 5, 6, 7];
    for (const mask of masks) {
      const matrix = new Matrix(ver);
      matrix.drawFunctionPatterns();
      matrix.drawCodewords(codewords);
      matrix.applyMask(mask);
      matrix.drawFormat(mask);
      const score = matrix.penalty();
      if (best === null || score < best.score) best = { score, mask, matrix };
    }
    return { version: ver, mask: best.mask, size: best.matrix.size, modules: best.matrix.dark };
  }

  /** An <svg> of the code, with the quiet zone of four modules. */
  function svg(text, label) {
    const code = encode(text);
    const quiet = 4;
    const dim = code.size + quiet * 2;
    let path = "";
    code.modules.forEach((row, y) => row.forEach((dark, x) => {
      if (dark) path += `M${x + quiet},${y + quiet}h1v1h-1z`;
    }));
    const ns = "http://www.w3.org/2000/svg";
    const el = document.createElementNS(ns, "svg");
    el.setAttribute("viewBox", `0 0 ${dim} ${dim}`);
    el.setAttribute("class", "qr");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label || text);
    el.setAttribute("shape-rendering", "crispEdges");
    const bg = document.createElementNS(ns, "rect");
    bg.setAttribute("width", String(dim));
    bg.setAttribute("height", String(dim));
    bg.setAttribute("fill", "#fff");
    const fg = document.createElementNS(ns, "path");
    fg.setAttribute("d", path);
    fg.setAttribute("fill", "#000");
    el.append(bg, fg);
    return el;
  }

  return { encode, svg };
})();

export { QR };
