"""The registration of the third loop: one `Loop` value, named by BATCHLOG_LOOPS=tests.third_loop.loop:LOOP."""

from batchlog.cli.loops import Loop

LOOP = Loop("tally", "a tally of words: the third loop, defined in tests/third_loop/",
            commands="tests.third_loop.cli:add_to", versions="tests.third_loop.versions:VERSIONS",
            decider="tests.third_loop.decider:TALLY")
