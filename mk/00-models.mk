# (read first: 00-) the analytic models and calibration tools (models/): the shared CSV reader and least squares
MODELS_COMMON_OBJ = $(B)/models/csv.o $(B)/models/lsq.o
EXTRA_TEST_OBJ += $(MODELS_COMMON_OBJ)
