; The kernel the host example launches from the accelerator's program memory: TROWSUM over the
; 4x8 FP32 tile the host installs at T#1; the 4x1 sums land in U#1.
; Assemble it with: ptosim asm examples/host/rowsum.s -o rowsum.bin
BSTART.SFU TROWSUM, FP32
B.DIM zero, 8, ->LB0
B.DIM zero, 4, ->LB1
B.IOT T#1, mask=1111, last, ->U<1>
BSTOP
