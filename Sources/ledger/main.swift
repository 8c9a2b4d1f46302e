import LedgerCLI

LedgerCLI.main()
