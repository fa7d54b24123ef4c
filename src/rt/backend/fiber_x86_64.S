/*
 * fiber_x86_64.S - switching between fibers on x86-64 (System V ABI).
 *
 * ravel__fiber_switch(void **save_sp, void *new_sp) saves what the ABI
 * says a called function must preserve - rbx, rbp, r12-r15, the SSE
 * control/status word and the x87 control word - on the current stack,
 * stores the stack pointer in *save_sp, switches to new_sp and restores the
 * same from there. A fiber that has never run starts with a frame built by
 * backend/fiber.c whose return address is ravel__fiber_start, with its
 * worker in r12. About a dozen instructions: no system call, unlike
 * swapcontext, which also sets the signal mask.
 *
 * ravel__fiber_snap(void **save_sp, void (*fn)(void *), void *arg) saves
 * the same registers in the same layout and stores the stack pointer in
 * *save_sp, as a switch away would, but then calls fn(arg) on the same
 * stack, below what it saved, and returns when fn does. A later
 * ravel__fiber_switch to the stack pointer it stored, once the stack
 * above it holds again what it held then, returns from the same call a
 * second time (snapshots, src/rt/process/resume.c: fn copies the stack).
 * ravel__fiber_call is the first frame of a fiber that runs a function
 * rather than a program thread: fn in r13, its argument in r12.
 */
    .text
    .globl ravel__fiber_switch
    .hidden ravel__fiber_switch
    .type ravel__fiber_switch, @function
ravel__fiber_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size ravel__fiber_switch, .-ravel__fiber_switch

    .globl ravel__fiber_start
    .hidden ravel__fiber_start
    .type ravel__fiber_start, @function
ravel__fiber_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    call ravel__fiber_main
    ud2
    .cfi_endproc
    .size ravel__fiber_start, .-ravel__fiber_start

    .globl ravel__fiber_snap
    .hidden ravel__fiber_snap
    .type ravel__fiber_snap, @function
ravel__fiber_snap:
    .cfi_startproc
    pushq %rbp
    .cfi_adjust_cfa_offset 8
    pushq %rbx
    .cfi_adjust_cfa_offset 8
    pushq %r12
    .cfi_adjust_cfa_offset 8
    pushq %r13
    .cfi_adjust_cfa_offset 8
    pushq %r14
    .cfi_adjust_cfa_offset 8
    pushq %r15
    .cfi_adjust_cfa_offset 8
    subq $8, %rsp
    .cfi_adjust_cfa_offset 8
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rdx, %rdi
    call *%rsi
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq %r15
    .cfi_adjust_cfa_offset -8
    popq %r14
    .cfi_adjust_cfa_offset -8
    popq %r13
    .cfi_adjust_cfa_offset -8
    popq %r12
    .cfi_adjust_cfa_offset -8
    popq %rbx
    .cfi_adjust_cfa_offset -8
    popq %rbp
    .cfi_adjust_cfa_offset -8
    ret
    .cfi_endproc
    .size ravel__fiber_snap, .-ravel__fiber_snap

    .globl ravel__fiber_call
    .hidden ravel__fiber_call
    .type ravel__fiber_call, @function
ravel__fiber_call:
    .cfi_startproc
    .cfi_undefined rip
    movq %r12, %rdi
    call *%r13
    ud2
    .cfi_endproc
    .size ravel__fiber_call, .-ravel__fiber_call

    .section .note.GNU-stack,"",@progbits
