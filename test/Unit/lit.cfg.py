# -*- Python -*-
# GoogleTest unit tests, run by lit so that they count with the rest.
import os
import lit.formats

config.name = "pcmap-unit"
config.test_format = lit.formats.GoogleTest(
    ".", "Tests", run_under=config.pcmap_run.split())
config.test_source_root = os.path.join(config.pcmap_obj_root, "test", "Unit")
config.test_exec_root = config.test_source_root
# Under an emulator (qemu-user) a test that runs its binary again (a death
# test in a fresh process) cannot: the tests that need one skip.
if config.pcmap_run:
    config.environment["PCMAP_TEST_EMULATED"] = "1"
