// The emulated Raspberry Pi Pico behind host/board/pico: rp2040js running a Pico firmware
// from a 2 MB flash image, its wires on this process's stdin/stdout as frames for Python
// (host/board/pico/__init__.py owns the pty, the displays' model and the clock's steps).
//
//   node bridge.mjs CONFIG_JSON
//   CONFIG: {bootrom, flash (image path, 2 MB), i2c (addresses that ack), epoch_ms (board
//            time at this power-up), stepped (wait for "T" before running), reason (0, or 1
//            after a watchdog reset)}
//
// A frame is: kind (1 byte), length (4 bytes, big-endian), payload.
//   in:  U bytes        USB CDC bytes from the host
//        K i down       key i of KEYPAD_4X4 (row i>>2 joined to column i&3 while down)
//        T ms           run until the board's clock reaches ms, then answer A (stepped)
//        F              run freely (the board keeps its own time)
//        C n            power cut after n more instructions
//        X k pages bytes  power cut during the k-th flash operation from now, after `pages`
//                       whole pages (program, 256 B) or sectors (erase, 4 KB) of it and
//                       `bytes` bytes of the next one (programmed, or set to 0xFF)
//   out: U bytes        USB CDC bytes to the host
//        I addr bytes   one I2C write transaction to a device that acked
//        P freq duty    the buzzer's PWM on GP15 changed (Hz, duty_u16; 0 0 when silent)
//        A ms insn      stepped to ms; instructions run since power-up (u64 as two u32)
//        N ms insn      the clock, now and then while running freely
//        W              the watchdog reset the chip
//        E addr count   a flash erase done;  G addr count: a flash program done
//        Q addr count   that program was not of whole aligned pages: the chip programmed
//                       what the boot ROM sends (see program()), not what was asked
//        M op addr count units pages bytes  the cut asked for (X) could not land in the
//                       operation it named (op 0 erase, 1 program; `units` its pages or
//                       sectors): it is dropped, and the chip runs on
//        L text         a note for the board's log
//
// Flash erase and program go through the boot ROM's function table: the first instruction of
// flash_range_erase / flash_range_program is replaced by BKPT, the operation is done on the
// flash array as the boot ROM and a W25Q16JV do it (whole 256-byte pages of the source, a
// sector erase of the sector an address is in) and written through to the image file page by
// page (so a SIGKILL is a power cut that leaves a prefix written), and its typical W25Q16JV
// time is added to the clock.

import fs from 'node:fs';
import { RP2040, USBCDC, GPIOPinState } from 'rp2040js';
// (not among the package's exports: taken from its file, the version being pinned)
import { SimulationClock } from './node_modules/rp2040js/dist/esm/clock/simulation-clock.js';

const config = JSON.parse(process.argv[2]);
const FLASH_SIZE = 2 * 1024 * 1024;
const SECTOR = 4096;
const PAGE = 256;
const ERASE_NS = 45e6; // W25Q16JV 4 KB sector erase, typical
const BLOCK_ERASE_NS = 150e6; // W25Q16JV 64 KB block erase, typical
const PROGRAM_NS = 0.4e6; // W25Q16JV 256 B page program, typical
const BKPT_ERASE = 0xbe01;
const BKPT_PROGRAM = 0xbe02;
const ROWS = [6, 7, 8, 9];
const COLS = [10, 11, 12, 13];
const BUZZER = 15;
const BATCH = 20000; // instructions between looks at the wall clock and the host's frames

const bootrom = new Uint32Array(fs.readFileSync(config.bootrom).buffer.slice(0));
const flashFd = fs.openSync(config.flash, 'r+');
const acking = new Set(config.i2c);
const keys = new Array(16).fill(false);

let mcu = null;
let clock = null;
let cdc = null;
let epochNs = config.epoch_ms * 1e6;
let instructions = 0n;
let limitNs = config.stepped ? epochNs : Infinity; // run until the board's clock reaches this
let limitMs = config.epoch_ms;
let answered = true;
let cutAt = -1n;
let cutOp = -1;
let cutPages = 0;
let cutBytes = 0;
let usbIn = [];
let lastTone = '';
let txLog = [];
let txAddr = -1;
let resetPending = false; // the watchdog fired: the chip resets once the clock's tick is done

function send(kind, payload) {
  const head = Buffer.alloc(5);
  head.write(kind, 0, 'latin1');
  head.writeUInt32BE(payload.length, 1);
  fs.writeSync(1, Buffer.concat([head, Buffer.from(payload)]));
}

function u32s(...values) {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

function nowNs() {
  return epochNs + clock.nanos;
}

function powerCut() {
  process.kill(process.pid, 'SIGKILL'); // nothing after this runs: the power is gone
}

function romFunction(code) {
  const read16 = (a) => (bootrom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  let entry = read16(0x14);
  for (;;) {
    const c = read16(entry);
    if (c === 0) throw new Error('boot ROM has no function ' + code);
    if (c === code) return read16(entry + 2) & ~1;
    entry += 4;
  }
}

function patch(address, opcode) {
  const i = address >> 2;
  const shift = (address & 2) * 8;
  bootrom[i] = (bootrom[i] & ~(0xffff << shift)) | (opcode << shift);
}

patch(romFunction(0x4552), BKPT_ERASE); // 'R' | 'E' << 8: flash_range_erase
patch(romFunction(0x5052), BKPT_PROGRAM); // 'R' | 'P' << 8: flash_range_program

function flashOp() {
  // One more erase or program: the power cut a test asked for may fall inside it (this one
  // only: a cut that cannot land in it is reported and dropped, never moved to a later one).
  if (cutOp > 0) cutOp -= 1;
  if (cutOp !== 0) return false;
  cutOp = -1;
  return true;
}

function missedCut(op, offset, count, units) {
  send('M', u32s(op, offset, count, units, cutPages, cutBytes));
}

function writeThrough(offset, length) {
  fs.writeSync(flashFd, mcu.flash, offset, length, offset);
}

function erase(offset, count, blockSize) {
  // As the boot ROM does it: a whole aligned block (blockSize, 64 KB from the SDK) by one block
  // erase command, the rest sector by sector (a sector erase command erases the 4 KB sector
  // its address is in); the clock gets those commands' times. A cut may fall between any two
  // sectors (a cut block erase leaves part of the block erased), or inside one: `cutBytes` of
  // it erased, the rest as it was.
  const cutting = flashOp();
  const end = Math.min(offset + count, FLASH_SIZE);
  let done = 0;
  let ns = 0;
  for (let a = offset; a < end; ) {
    const block = blockSize > SECTOR && a % blockSize === 0 && end - a >= blockSize;
    const n = block ? blockSize : SECTOR;
    ns += block ? BLOCK_ERASE_NS : ERASE_NS;
    const first = a - (a % SECTOR);
    for (let s = first; s < first + n; s += SECTOR) {
      if (cutting && done === cutPages && cutBytes < SECTOR) {
        mcu.flash.fill(0xff, s, s + cutBytes);
        writeThrough(s, cutBytes);
        powerCut();
      }
      mcu.flash.fill(0xff, s, s + SECTOR);
      writeThrough(s, SECTOR);
      done += 1;
    }
    a += n;
  }
  if (cutting) missedCut(0, offset, count, done);
  clock.tick(ns);
  send('E', u32s(offset, count));
}

function program(offset, data, count) {
  // As the boot ROM's flash_range_program does it: one W25Q page program per 256 bytes of
  // `count` rounded up, each sending 256 bytes of the source from `data` on, at the address
  // `offset` + 256 k. The chip programs a page's bytes from the address on and wraps inside
  // its 256-byte page. So a program of whole aligned pages writes what was asked, and any
  // other writes a whole page of the source buffer and whatever follows it in RAM (ANDed into
  // the flash: a program only clears bits), as a real Pico would; the bridge says so (Q).
  const cutting = flashOp();
  const pages = Math.ceil(count / PAGE);
  for (let k = 0; k < pages; k++) {
    const address = (offset + k * PAGE) % FLASH_SIZE;
    const base = address - (address % PAGE);
    const cutHere = cutting && k === cutPages && cutBytes < PAGE;
    const last = cutHere ? cutBytes : PAGE;
    for (let j = 0; j < last; j++) {
      const to = base + ((address + j) % PAGE);
      mcu.flash[to] &= mcu.readUint8(data + k * PAGE + j);
    }
    writeThrough(base, PAGE);
    if (cutHere) powerCut();
  }
  if (cutting) missedCut(1, offset, count, pages);
  if (offset % PAGE || count % PAGE) {
    send('Q', u32s(offset, count));
  }
  clock.tick(pages * PROGRAM_NS);
  send('G', u32s(offset, count));
}

function keypad() {
  // A pressed key joins its row to its column: a column reads low while a row it is joined
  // to is driven low; else its pull-up holds it high.
  const low = ROWS.map((n) => mcu.gpio[n].value === GPIOPinState.Low);
  COLS.forEach((n, c) => {
    let level = true;
    for (let r = 0; r < 4; r++) {
      if (keys[r * 4 + c] && low[r]) level = false;
    }
    mcu.gpio[n].setInputValue(level);
  });
}

function tone() {
  // GP15 is PWM slice 7, channel B.
  const pin = mcu.gpio[BUZZER];
  let freq = 0;
  let duty = 0;
  if (pin.functionSelect === 4) {
    const base = 0x40050000 + 7 * 0x14;
    const csr = mcu.readUint32(base);
    const div = mcu.readUint32(base + 4);
    const top = mcu.readUint32(base + 0x10) & 0xffff;
    const level = mcu.readUint32(base + 0xc) >>> 16;
    const divider = (div >>> 4) + (div & 0xf) / 16 || 1;
    if (csr & 1 && level > 0) {
      freq = Math.round(mcu.clkSys / (divider * (top + 1)));
      duty = Math.min(65535, Math.round((level * 65535) / (top + 1)));
    }
  }
  const now = freq + ' ' + duty;
  if (now !== lastTone) {
    lastTone = now;
    const b = Buffer.alloc(6);
    b.writeUInt32BE(freq, 0);
    b.writeUInt16BE(duty, 4);
    send('P', b);
  }
}

function powerUp(reason) {
  clock = new SimulationClock();
  mcu = new RP2040(clock);
  mcu.logger = { debug() {}, info() {}, warn() {}, error(c, m) { send('L', c + ': ' + m); } };
  mcu.loadBootrom(bootrom);
  const image = Buffer.alloc(FLASH_SIZE);
  fs.readSync(flashFd, image, 0, FLASH_SIZE, 0);
  mcu.flash.set(image);
  mcu.core.PC = 0x10000000;
  const watchdog = mcu.peripherals[0x40058];
  watchdog.reason = reason;
  watchdog.onWatchdogTrigger = () => {
    // Its alarm fires inside clock.tick(), and is periodic: stop it, and reset the chip
    // after that tick (a reset from inside it would fire the old chip's alarm again).
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    resetPending = true;
  };
  mcu.onBreak = (code) => {
    const core = mcu.core;
    const r = core.registers;
    if (code === (BKPT_ERASE & 0xff)) erase(r[0], r[1], r[2]);
    else if (code === (BKPT_PROGRAM & 0xff)) program(r[0], r[1], r[2]);
    else send('L', 'breakpoint ' + code + ' at ' + core.PC.toString(16));
    core.PC = core.LR & ~1;
  };
  const i2c = mcu.i2c[0];
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (address) => {
    const ack = acking.has(address);
    txAddr = ack ? address : -1;
    txLog = [];
    i2c.completeConnect(ack);
  };
  i2c.onWriteByte = (value) => {
    txLog.push(value);
    i2c.completeWrite(true);
  };
  i2c.onReadByte = () => i2c.completeRead(0);
  i2c.onStop = () => {
    if (txAddr >= 0 && txLog.length) send('I', Buffer.from([txAddr, ...txLog]));
    txLog = [];
    txAddr = -1;
    i2c.completeStop();
  };
  for (const n of ROWS) mcu.gpio[n].addListener(keypad);
  keypad();
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onSerialData = (data) => send('U', data);
}

function watchdogReset() {
  resetPending = false;
  epochNs = nowNs();
  send('W', Buffer.alloc(0));
  powerUp(1); // the chip resets; the flash stays, the clock goes on
}

function feedUsb() {
  while (usbIn.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) {
    cdc.sendSerialByte(usbIn.shift());
  }
}

let inbox = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  inbox = Buffer.concat([inbox, chunk]);
  while (inbox.length >= 5) {
    const size = inbox.readUInt32BE(1);
    if (inbox.length < 5 + size) break;
    const kind = String.fromCharCode(inbox[0]);
    const body = inbox.subarray(5, 5 + size);
    inbox = inbox.subarray(5 + size);
    if (kind === 'U') for (const b of body) usbIn.push(b);
    else if (kind === 'K') {
      keys[body[0]] = body[1] !== 0;
      keypad();
    } else if (kind === 'T') {
      limitMs = body.readUInt32BE(0);
      limitNs = limitMs * 1e6;
      answered = false;
    } else if (kind === 'F') limitNs = Infinity;
    else if (kind === 'C') cutAt = instructions + BigInt(body.readUInt32BE(0));
    else if (kind === 'X') {
      cutOp = body.readUInt32BE(0);
      cutPages = body.readUInt32BE(4);
      cutBytes = body.readUInt32BE(8);
    }
  }
  schedule();
});
process.stdin.on('end', () => process.exit(0)); // the host is gone: so is the power

let scheduled = false;
function schedule() {
  if (!scheduled) {
    scheduled = true;
    setImmediate(run);
  }
}

function clockFrame(kind, ms) {
  send(kind, u32s(ms, Number(instructions >> 32n), Number(instructions & 0xffffffffn)));
}

function run() {
  scheduled = false;
  const wallEnd = Date.now() + 30;
  let lastNotice = Math.floor(nowNs() / 1e7);
  while (Date.now() < wallEnd) {
    feedUsb();
    for (let i = 0; i < BATCH; i++) {
      const t = nowNs();
      if (t >= limitNs) break;
      if (mcu.core.waiting) {
        clock.tick(Math.min(clock.nanosToNextAlarm, limitNs - t));
      } else {
        const cycles = mcu.core.executeInstruction();
        clock.tick((cycles * 1e9) / mcu.clkSys);
        instructions += 1n;
        if (instructions === cutAt) powerCut();
      }
      if (resetPending) watchdogReset();
    }
    tone();
    if (nowNs() >= limitNs) {
      if (!answered) {
        answered = true;
        clockFrame('A', limitMs);
      }
      return; // paused until the host steps the clock again
    }
  }
  const notice = Math.floor(nowNs() / 1e7);
  if (notice !== lastNotice || limitNs === Infinity) clockFrame('N', Math.floor(nowNs() / 1e6));
  schedule();
}

powerUp(config.reason || 0);
schedule();
