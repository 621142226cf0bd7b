import LaunchprofCLI

LaunchprofMain.run()
